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
        addEventRoutes(authenticated)
        addHabitRoutes(authenticated)
        addMilestoneRoutes(authenticated)
        addReadRoutes(authenticated)
        addMemoryRoutes(authenticated)
        addCelebrationRoutes(authenticated)
        addNotificationRoutes(authenticated)
        addPushRoutes(authenticated)
        addSocialRoutes(authenticated)
        WebController<MomentumContext>(
            services: server.services, configuration: server.configuration, sessions: server,
            status: { APIError.from($0).status }
        ).addRoutes(to: router)
    }
}
