import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStore
import MomentumWeb

/// Every route of the API, registered on one router.
struct Routes {
    let server: ServerState

    func register(on router: Router<MomentumContext>) {
        addOpsRoutes(router)
        addAdminRoutes(router)
        addWebhookRoutes(router)
        let v1 = router.group("v1")
        let authenticated = router.group("v1").add(middleware: AuthMiddleware(server: server))
            .add(middleware: IdempotencyMiddleware(server: server))
        addAccountRoutes(public: v1, authenticated: authenticated)
        EventController(
            ingest: server.services.ingest, hub: server.hub, streams: server.metrics.streams,
            maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(to: authenticated)
        HabitController(
            ingest: server.services.ingest, dashboard: server.services.dashboard,
            maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(to: authenticated)
        MilestoneController(
            milestones: server.services.milestones, ingest: server.services.ingest,
            maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(to: authenticated)
        ReadController(dashboard: server.services.dashboard, ingest: server.services.ingest)
            .addRoutes(to: authenticated)
        MemoryController(
            memories: server.services.memories, subjectPhotos: server.services.subjectPhotos,
            maxPhotoBytes: server.configuration.maxPhotoBytes
        ).addRoutes(to: authenticated)
        CelebrationController(celebrations: server.services.celebrations).addRoutes(to: authenticated)
        NotificationController(notifications: server.services.notifications).addRoutes(to: authenticated)
        addPushRoutes(authenticated)
        SocialController(social: server.services.social).addRoutes(to: authenticated)
        FamilyController(families: server.services.families, maxBodyBytes: server.configuration.maxBodyBytes)
            .addRoutes(to: authenticated)
        WebController<MomentumContext>(
            services: server.services, configuration: server.configuration, sessions: server,
            status: { APIError.from($0).status }
        ).addRoutes(to: router)
    }
}
