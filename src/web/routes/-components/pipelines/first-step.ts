/**
 * The tool of a new pipeline's first step. A module of its own: the route's loader asks for that tool's
 * form as the page's code downloads, and the builder's own files would bring zod into the console's start.
 */
export const FIRST_STEP_TOOL = 'speech' as const;
