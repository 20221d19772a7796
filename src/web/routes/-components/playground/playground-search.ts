import { isJobId, isPresetId, TOOL_KEYS } from '../../../../contract/values.ts';
import { httpUrl, matching, oneOf, searchParams, text } from '../../../search-params/fields.ts';

/** Tool tab, model (maybe `<provider>:<model>`) and the job shown as the result: all in the URL. */
export const PlaygroundSearch = searchParams({
  tool: oneOf(TOOL_KEYS),
  model: text({ min: 1, max: 200 }),
  job: matching(isJobId),
  /** A file to start from (its URL; "Use in playground" on a file's page): the form opens with it as input. */
  input: httpUrl,
  /** A preset to start from ("Use in playground" on /presets): its fragment for the tool is applied. */
  preset: matching(isPresetId),
});
