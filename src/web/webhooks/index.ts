/**
 * Webhooks of crawl and batch scrape jobs (docs/webhooks.md): the request field's schema, the
 * signed, retried delivery, and the server's signing secret.
 */
export { WebhookSchema, WEBHOOK_EVENTS, type WebhookConfig, type WebhookEvent } from './schema.ts';
export { createWebhookDispatcher, DEFAULT_RETRY_DELAYS_MS, type JobEventSink, type WebhookDispatcher, type WebhookTarget } from './dispatcher.ts';
export { loadWebhookSecret, signWebhookBody, verifyWebhookSignature, SIGNATURE_HEADER } from './signature.ts';
