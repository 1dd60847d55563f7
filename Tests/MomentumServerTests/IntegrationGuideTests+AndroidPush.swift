import MomentumServices

extension IntegrationGuideTests {
    /// "Android push": the server has a Firebase service account, so that it takes FCM
    /// registration tokens. Its key is never used: the examples register a device and forget
    /// it, and nothing is sent to it.
    static func prepareAndroidPush(_ run: inout GuideRun) async throws {
        run.configuration.fcm = FCMConfiguration(
            projectID: "momentum-guide", clientEmail: "push@momentum-guide.iam.gserviceaccount.com",
            privateKeyPEM: "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----", privateKeyID: "guide")
    }
}
