public enum MomentumTestSupport {}
