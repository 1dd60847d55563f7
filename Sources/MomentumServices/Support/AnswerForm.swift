import MomentumCore

/// The names JSON answers give their fields, for the request being answered.
public enum AnswerForm: Sendable {
    /// The renames of `ServerConfiguration/answerRenames`, while a request is answered.
    @TaskLocal public static var renames = JSONKeyRenames.none
}
