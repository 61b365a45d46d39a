/**
 * Redis (REDIS_URL): the one place folio opens connections to it (docs/scale-out.md). Crawl and
 * batch queues (BullMQ), and the shared fast state of several instances, take their connections
 * here; nothing in this folder knows what they store.
 */
export { checkRedisReachable, openRedis, openRedisFailFast, redactRedisUrl } from './connection.ts';
