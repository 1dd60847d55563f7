import MomentumServices

/// The sign-in page (signed out: the layout reads only its `title`).
struct SignInPage: TemplateModel {
    static let template = "signin"
    var title = L("auth.signIn")
    var demo = false
    /// Where to go once signed in (a path of this site), if not Today.
    var next: String?
    var email = ""
    var error: String?
}

/// The sign-up page.
struct SignUpPage: TemplateModel {
    static let template = "signup"
    var title = L("auth.createAccount")
    /// Where to go once signed in (a path of this site), if not Today.
    var next: String?
    var email = ""
    var displayName = ""
    var error: String?
    var zones: [ZoneOption]
    var packChoices: [PackChoice]
}

/// One time zone of a form's list.
struct ZoneOption: Codable {
    var name: String
    var selected: Bool
}

/// One bundled pack as the sign-up and profile forms offer it (`packchoice.mustache`).
struct PackChoice: Codable {
    var value: String
    var label: String
    var icon: String
    var hint: String
    var checked: Bool
}

/// A page that is not there (an unknown habit, pack, friend, family or memory).
struct MissingPage: TemplateModel {
    static let template = "missing"
}
