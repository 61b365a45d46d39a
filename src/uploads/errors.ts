/**
 * The upload flow's refusals, worded for the person (or agent) who has to act on them. None of
 * them carries the uploadRef or the upload URL's token: both are secrets (issue 5 §5).
 */
import { ServiceError } from '../errors.ts';

/** interface-v2 "Limits": 50 MB per request, for an upload by reference as for a multipart one. */
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

export function uploadTooLarge(maxBytes: number): ServiceError {
  const mb = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return new ServiceError(
    'FILE_TOO_LARGE',
    `The file exceeds the ${mb} MB (${maxBytes} bytes) upload limit. Split the document or reduce its size, then request a new upload.`,
  );
}

const NEW_UPLOAD = 'Request a new upload (the `parse` tool with `filePath`, or POST /v2/uploads) and upload the file again.';

/** The same answer for a ref that does not exist and one of another owner: existence is not revealed. */
export function unknownUploadRef(): ServiceError {
  return new ServiceError('NOT_FOUND', `Unknown uploadRef: no upload with this reference exists for your account. ${NEW_UPLOAD}`);
}

export function malformedUploadRef(): ServiceError {
  return new ServiceError(
    'BAD_REQUEST',
    'Invalid uploadRef: it is not a reference this server issued (expected `upl_` followed by 43 URL-safe characters). Pass the `uploadRef` exactly as the upload ticket gave it.',
  );
}

export function expiredUploadRef(ttlSeconds: number): ServiceError {
  return new ServiceError('BAD_REQUEST', `This uploadRef has expired (uploads are kept ${describeSeconds(ttlSeconds)}). ${NEW_UPLOAD}`);
}

export function uploadRefNotUploaded(): ServiceError {
  return new ServiceError(
    'BAD_REQUEST',
    'Nothing has been uploaded for this uploadRef yet. Run the upload command first (PUT the file to the `uploadUrl` of the ticket), then call parse with the `uploadRef` again.',
  );
}

export function uploadRefUsed(): ServiceError {
  return new ServiceError('BAD_REQUEST', `This uploadRef has already been used: a ref works for one parse only, and its file is deleted after it. ${NEW_UPLOAD}`);
}

export function malformedUploadUrl(): ServiceError {
  return new ServiceError('BAD_REQUEST', 'This upload URL is malformed: use the `uploadUrl` of an upload ticket exactly as it was given.');
}

export function unknownUploadUrl(): ServiceError {
  return new ServiceError('NOT_FOUND', `This upload URL is not valid: it was never issued, or its upload has expired and been removed. ${NEW_UPLOAD}`);
}

export function expiredUploadUrl(ttlSeconds: number): ServiceError {
  return new ServiceError('BAD_REQUEST', `This upload URL has expired (it is valid ${describeSeconds(ttlSeconds)}). ${NEW_UPLOAD}`);
}

export function uploadUrlUsed(): ServiceError {
  return new ServiceError(
    'BAD_REQUEST',
    'A file has already been uploaded to this URL: an upload URL takes one file. Parse it with its `uploadRef`, or request a new upload for another file.',
  );
}

export function uploadInProgress(): ServiceError {
  return new ServiceError('BAD_REQUEST', 'A file is being uploaded to this URL right now: an upload URL takes one file. Wait for that upload to finish.');
}

export function tooManyUploadRefs(maxRefs: number, retryAfterSeconds: number): ServiceError {
  return new ServiceError(
    'RATE_LIMITED',
    `Your account holds ${maxRefs} upload refs that are not parsed yet, the most allowed at once. Parse (or let expire) one of them first; the oldest expires in ${describeSeconds(retryAfterSeconds)}.`,
    { retryAfterSeconds },
  );
}

function describeSeconds(seconds: number): string {
  if (seconds % 60 === 0 && seconds >= 60) {
    const m = seconds / 60;
    return `${m} minute${m === 1 ? '' : 's'}`;
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
