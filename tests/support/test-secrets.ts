/** The secrets every test process uses (handlers in-process and serverless-offline alike). */
export const TEST_SERVICE_TOKENS = 'test-service-token-aaaaaaaaaaaaaaaa,second-service-token-bbbbbbbbbbbbbbb';
export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-long-enough-0123456789';
