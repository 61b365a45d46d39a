/** What every blob backend shares: the form of a key, and the answer when an object is gone. */
import { ServiceError } from '../errors.ts';

/** Keys are ids the services generate (32 hex digits): anything else is a bug, never a name. */
export const KEY_PATTERN = /^[a-f0-9]{32}$/;

export function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error('invalid blob storage key');
  return key;
}

export function objectGone(): ServiceError {
  return new ServiceError('NOT_FOUND', 'The uploaded file is no longer stored. Request a new upload and upload the file again.');
}
