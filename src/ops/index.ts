/**
 * Operations (docs/operations.md): readiness, Prometheus metrics and the drain of a graceful
 * shutdown. No HTTP here: src/http/operations.ts is the door that serves them.
 */
export { createDrain, type Drain } from './drain.ts';
export { createFolioMetrics, formatOf, operationOf, LATENCY_BUCKETS, type FolioMetrics, type PoolStats } from './folio-metrics.ts';
export { createMetricsRegistry, EXPOSITION_CONTENT_TYPE, type Counter, type Histogram, type Labels, type MetricsRegistry } from './metrics.ts';
export { createReadiness, NotReadyError, type Readiness, type ReadinessProbe, type ReadinessReport } from './readiness.ts';
export { createRedisPing, type RedisPing } from './redis-ping.ts';
export { meteredAccounts } from './metered-accounts.ts';
