/// The pages of an email account's recovery (`recovery.mustache`): asking for a reset
/// mail, choosing a new password with its link, and verifying the address with a
/// verification link. One template; each flag shows one of its states.
struct RecoveryPage: TemplateModel {
    static let template = "recovery"
    var title: String
    /// "Forgot your password?": the email form.
    var forgot = false
    /// The reset mail is asked for (whether or not the address has an account).
    var sent = false
    /// "Choose a new password": the form with the link's token.
    var reset = false
    /// The password is changed.
    var resetDone = false
    /// The verification link's page: a button that verifies (a GET verifies nothing, so a
    /// mail scanner that opens the link does not use it up).
    var verify = false
    /// The address is verified.
    var verified = false
    /// The link's token, carried by the form's POST.
    var token: String?
    var email = ""
    var error: String?
}
