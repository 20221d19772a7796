import { Link } from '@tanstack/react-router';
import type { ToolKey } from '../../../../contract/common.ts';
import type { FileRecord } from '../../../../contract/files.ts';
import { buttonClasses } from '../../../components/button.tsx';
import { toolLabel } from '../../../format/tool-label.ts';
import { familyOf, type MediaFamily } from './file-kind.ts';

/** The tools that take a file of each family as their input. */
const TOOLS_FOR: Record<MediaFamily, readonly ToolKey[]> = {
  image: ['image', 'video', 'ffmpeg'],
  video: ['video', 'ffmpeg'],
  audio: ['transcription', 'ffmpeg'],
  other: ['ffmpeg'],
};

/** Links that open the playground on a tool with this file as the input (`?input=<url>`). */
export function UseInPlayground({ file }: { file: FileRecord }) {
  const tools = TOOLS_FOR[familyOf(file.media_type)];
  return (
    <section aria-labelledby="use-in-playground" className="flex flex-col gap-2">
      <h3 id="use-in-playground" className="text-sm font-semibold text-zinc-900 dark:text-zinc-100">
        Use in playground
      </h3>
      <div className="flex flex-wrap gap-2">
        {tools.map((tool) => (
          <Link
            key={tool}
            to="/playground"
            search={{ tool, input: file.url }}
            className={buttonClasses('secondary', 'sm')}
            aria-label={`Use in playground: ${toolLabel(tool)}`}
          >
            {toolLabel(tool)}
          </Link>
        ))}
      </div>
    </section>
  );
}
