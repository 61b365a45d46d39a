/**
 * The upload command → uploadRef round trip (interface-v2 "Hosted tool-server addresses"): a
 * remote tool server cannot read the caller's files, so `parse{filePath}` hands out a one-time
 * upload URL and an `uploadRef`, and `parse{uploadRef}` parses what arrived there.
 */

/** What a caller gets back to upload one file. */
export interface UploadTicket {
  /** Unguessable, single use, bound to its owner; what `parse{uploadRef}` takes. */
  uploadRef: string;
  /** Absolute URL the file is PUT to; carries no API key or token of the caller. */
  uploadUrl: string;
  method: 'PUT';
  /** ISO 8601. */
  expiresAt: string;
  maxBytes: number;
}

export interface UploadedFile {
  bytes: Buffer;
  filename: string;
  contentType?: string;
}

export interface TakenUpload extends UploadedFile {
  /** Deletes the stored bytes (idempotent). Called right after the parse. */
  release(): Promise<void>;
}

export interface UploadRefService {
  /** A new ref for `owner` (`Caller.owner`); RATE_LIMITED when the owner holds too many. */
  create(owner: string, file: { filename: string }): Promise<UploadTicket>;
  /**
   * The uploaded bytes, for one parse: the ref must be the owner's, unexpired, uploaded and not
   * used before; it is spent by this call. Throws ServiceError otherwise, with a message that
   * says which (and what to do).
   */
  take(owner: string, uploadRef: string): Promise<TakenUpload>;
}

/**
 * Direct file access for a tool server running on the caller's own machine (stdio): reads a
 * path confined to the allowed roots. A remote server has none, and answers `filePath` with an
 * upload ticket instead.
 */
export interface LocalFileReader {
  /** Throws ServiceError (FORBIDDEN outside the roots, NOT_FOUND, FILE_TOO_LARGE) with an actionable message. */
  read(filePath: string): Promise<UploadedFile>;
}
