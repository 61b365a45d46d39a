/** Placeholder until the html reader lands in this change. */
import { ServiceError } from '../../../errors.ts';
import type { ReadInput, ReadResult } from '../../document.ts';

export async function readHtml(_input: ReadInput): Promise<ReadResult> {
  throw new ServiceError('NOT_YET_SUPPORTED', 'This reader is not built yet.');
}
