import MomentumStore

/// A link's mail, in the recipient's language (`mail.*` of the wording).
struct MailLetter: Sendable {
    let subject: String
    let body: String

    init(purpose: AccountLink.Purpose, link: String, hours: Int, wording: Wording) {
        let values = ["link": link]
        switch purpose {
        case .passwordReset:
            subject = wording("mail.resetSubject")
            body =
                wording("mail.resetBody", values) + "\n\n" + wording.count("mail.expiresInHours", hours)
                + "\n\n" + wording("mail.resetIgnore") + "\n"
        case .emailVerification:
            subject = wording("mail.verifySubject")
            body =
                wording("mail.verifyBody", values) + "\n\n" + wording.count("mail.expiresInHours", hours)
                + "\n\n" + wording("mail.verifyIgnore") + "\n"
        }
    }
}
