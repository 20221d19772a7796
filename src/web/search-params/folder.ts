import { isUuid, NONE } from '../../contract/values.ts';
import type { Field } from './fields.ts';

/** A folder filter in the URL: a folder id (lower-cased: one folder, one query key) or `none` (no folder). */
export const folderParam: Field<string> = (raw) => {
  if (raw === NONE) return NONE;
  return isUuid(raw) ? raw.toLowerCase() : undefined;
};
