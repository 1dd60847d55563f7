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
        let admin = AdminGate(token: server.configuration.adminToken, operators: server.services.operators)
        let push = PushController(
            targets: server.services.pushTargets, vapid: server.vapid, apns: server.configuration.apns != nil,
            fcm: server.configuration.fcm != nil, admin: admin)
        OperationsController(server: server).addRoutes(to: router)
        AdminController(
            admin: admin, operations: server.services.operations, social: server.services.social,
            accounts: server.services.accounts, ingest: server.services.ingest,
            maxArchiveBytes: server.configuration.maxArchiveBytes, maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(to: router)
        push.addWebhookRoutes(to: router)
        OperatorController(admin: admin, operators: server.services.operators).addRoutes(to: router)
        ConsoleUsersController(
            admin: admin, lookup: server.services.userLookup, grants: server.services.grants,
            reviews: server.services.flagReviews, maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(to: router)
        ServerKeyController(
            admin: admin, keys: server.services.serverKeys, maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(to: router)
        WhatIfController(
            admin: admin, whatIf: server.services.whatIf, maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(to: router)
        AmnestyController(
            admin: admin, amnesties: server.services.amnesties, maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(to: router)
        PacksController(
            admin: admin, packs: server.services.packs, maxBytes: server.configuration.packs.maxBytes
        ).addRoutes(to: router)
        DeliveryAdminController(
            admin: admin, webhooks: server.services.webhookConsole, summaries: server.services.notificationSummaries
        ).addRoutes(to: router)
        BackendController(
            backend: server.services.backendUsers, ingest: server.services.ingest, dashboard: server.services.dashboard,
            idempotency: IdempotencyMiddleware(
                idempotency: server.services.idempotency, maxBodyBytes: server.configuration.maxBodyBytes),
            maxBodyBytes: server.configuration.maxBodyBytes
        ).addRoutes(
            to: router.group("v1/server").add(middleware: ServerKeyMiddleware(keys: server.services.serverKeys)))
        let v1 = router.group("v1")
        let authenticated = router.group("v1")
            .add(
                middleware: AuthMiddleware(
                    sessions: server.services.sessionAuthentication, streamTickets: server.services.streamAdmission,
                    userLimit: server.userLimiter)
            )
            .add(
                middleware: IdempotencyMiddleware(
                    idempotency: server.services.idempotency,
                    maxBodyBytes: max(server.configuration.maxBodyBytes, server.configuration.maxPhotoBytes)))
        AccountController(
            accounts: server.services.accounts, habitImports: server.services.habitImports,
            maxBodyBytes: server.configuration.maxBodyBytes, clock: server.configuration.clock,
            recovery: server.services.recovery
        ).addRoutes(public: v1, authenticated: authenticated)
        AccountRecoveryController(recovery: server.services.recovery).addRoutes(
            public: v1, authenticated: authenticated)
        IdentityController(identities: server.services.identitySignIns)
            .addRoutes(public: v1, authenticated: authenticated)
        EventController(
            ingest: server.services.ingest, streamAdmission: server.services.streamAdmission, hub: server.hub,
            streams: server.metrics.streams,
            maxBodyBytes: server.configuration.maxBodyBytes, rules: server.services.dashboard.rules
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
        push.addRoutes(to: authenticated)
        SocialController(social: server.services.social).addRoutes(to: authenticated)
        FamilyController(families: server.services.families, maxBodyBytes: server.configuration.maxBodyBytes)
            .addRoutes(to: authenticated)
        WebController<MomentumContext>(
            services: server.services, configuration: server.configuration, sessions: server,
            status: { APIError.from($0).status }
        ).addRoutes(to: router)
        ConsoleController<MomentumContext>(
            services: server.services, configuration: server.configuration, status: { APIError.from($0).status }
        ).addRoutes(to: router)
    }
}
