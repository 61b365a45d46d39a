/**
 * What a request gets when the shared limits cannot be checked (Redis away): 503
 * LIMITS_UNAVAILABLE with Retry-After. Limits fail closed: an instance that let requests through
 * unchecked would let N instances each allow a team its whole limit (docs/scale-out.md).
 */
import { ServiceError } from '../../errors.ts';

export const UNAVAILABLE_RETRY_SECONDS = 5;

export function limitsUnavailable(cause: unknown): ServiceError {
  return new ServiceError(
    'LIMITS_UNAVAILABLE',
    `This request was not served: the rate and concurrency limits that folio instances share in Redis (REDIS_URL) cannot be checked right now, because Redis does not answer. Retry in ${UNAVAILABLE_RETRY_SECONDS} s; if it persists, the operator should check that Redis is up and reachable from this instance.`,
    { cause, retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS },
  );
}

/** Runs a Redis call; its failure becomes LIMITS_UNAVAILABLE. */
export async function shared<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw limitsUnavailable(err);
  }
}
