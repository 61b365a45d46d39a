import { expect } from 'vitest';
import { ServiceError } from '../../src/errors.ts';

/** The ServiceError a promise rejects with; a resolve or any other error fails the test. */
export async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}
