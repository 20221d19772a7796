import nlp from 'compromise';
import type { Focus, FocusMatch, TimelineEntry } from '../../../contract/video-analysis.ts';
import {
  coloursSentence,
  factsSentence,
  list,
  quote,
  type SummaryInput,
  type SummaryPart,
  scenesSentence,
  seconds,
  summarize,
} from './analyze-summary.ts';

/**
 * Answers the question a video analysis was asked (`prompt`) from what the analysis found: on-screen
 * text (OCR), the transcript, scene cuts, colours and brightness, and the facts ffprobe gives. The
 * question is classified with compromise (verb roots, so "said", "says" and "saying" all ask about
 * speech), and each kind of question gets its own answer; what the analysis cannot see (objects, people,
 * actions) is said plainly rather than guessed.
 */

export type QuestionKind =
  | 'text'
  | 'speech'
  | 'search'
  | 'scenes'
  | 'events'
  | 'colours'
  | 'facts'
  | 'objects';

export interface Question {
  /** What the question asks about, in the order answers are given. */
  kinds: QuestionKind[];
  /** Words to look for in the on-screen text and speech ("does it mention X"). */
  keywords: string[];
}

/**
 * compromise match terms (`{say}` matches every form of the verb: said, says, saying) for each kind of
 * question. Each term is tried on its own: compromise does not expand `{root}` terms inside alternations.
 */
const TERMS: ReadonlyArray<[Exclude<QuestionKind, 'search'>, string]> = [
  [
    'text',
    'text texts caption captions title titles subtitle subtitles sign signs label labels banner slide slides onscreen screen written writing {write} {read} lettering',
  ],
  [
    'speech',
    '{say} {speak} {talk} {tell} {narrate} {hear} {sing} speech spoken voice voices narrator narration transcript dialogue dialog audio lyrics',
  ],
  ['scenes', 'scene scenes cut cuts shot shots transition transitions edit edits'],
  ['events', '{happen} {describe} {occur} summary summarise summarize overview'],
  [
    'colours',
    'colour colours color colors colourful colorful palette bright brightness dark darkness lighting hue hues tone tones',
  ],
  ['facts', 'long length duration resolution fps framerate codec codecs format size quality seconds minutes'],
  [
    'objects',
    'who whom person people man men woman women child children animal animals object objects thing things face faces {see}',
  ],
];
const PATTERNS = TERMS.map(([kind, terms]) => [kind, terms.split(' ')] as const);

const matchesAny = (doc: ReturnType<typeof nlp>, terms: readonly string[]) => terms.some((t) => doc.has(t));

/** Words of a question that ask, rather than name what to look for. */
const QUESTION_WORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out has him his how its may new now old see ' +
    'two way who did get let put say she too use what when where which while with this that these those from ' +
    'into over than then them they their there about above after again below could does doing just more most ' +
    'only other some such very would should will your yours video clip film footage movie please tell show ' +
    'find give list describe anything something here whether said says mention mentions mentioned appear ' +
    'appears appeared shown seen happen happens happening many much anywhere anyone someone everything ' +
    'ever also both each either kind sort part parts whole recording overall why dominate dominant main ' +
    'mostly used have been being done make made'
  ).split(' '),
);

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A crude English stem so that "reports" finds "report" and "talking" finds "talk". */
function stem(word: string): string {
  const stemmed = word.replace(/(ing|ed|es|s|ly)$/, '');
  return stemmed.length >= 3 ? stemmed : word;
}

/** True when `word` on its own asks about one of the kinds (so it is not a word to search for). */
function isTopicWord(word: string): boolean {
  const doc = nlp(word);
  doc.compute('root');
  return PATTERNS.some(([, terms]) => matchesAny(doc, terms));
}

/** Which kinds of answer a question asks for, and the words it wants found in the text and speech. */
export function classifyQuestion(prompt: string): Question {
  const doc = nlp(prompt);
  doc.compute('root');
  const kinds = new Set<QuestionKind>(PATTERNS.filter(([, terms]) => matchesAny(doc, terms)).map(([k]) => k));
  const lower = prompt.toLowerCase();
  if (/\bwhat('s| is)\b.*\babout\W*$/.test(lower)) kinds.add('events');
  // "How many dogs", "is there a cat", "are there any cars": about things in the picture.
  const counted = doc.match('how many [#Noun+]', 0).text('normal');
  if (counted && !kinds.has('scenes')) kinds.add('objects');
  if (doc.has('(is|are) there') && !kinds.has('scenes')) kinds.add('objects');

  // Quoted words are what to look for; otherwise the content words that do not ask.
  const quoted = (doc.quotations().out('array') as string[]).flatMap((q) => wordsOf(q));
  const content = wordsOf(prompt).filter(
    (word) => word.length >= 3 && !QUESTION_WORDS.has(word) && !isTopicWord(word),
  );
  const keywords = [...new Set(quoted.length > 0 ? quoted : content)].slice(0, 12);
  if (keywords.length > 0) kinds.add('search');
  const order: QuestionKind[] = [
    'text',
    'speech',
    'search',
    'scenes',
    'events',
    'colours',
    'facts',
    'objects',
  ];
  return { kinds: order.filter((kind) => kinds.has(kind)), keywords };
}

const CANNOT_SEE =
  'I cannot identify objects, people or actions: this analysis sees only colours, brightness and scene cuts, and reads on-screen text and speech.';

function span(start: number, end: number): string {
  return end - start < 0.05 ? `at ${seconds(start)}` : `from ${seconds(start)} to ${seconds(end)}`;
}

function textAnswer({ onScreenText }: SummaryInput): string {
  if (onScreenText.length === 0) return 'No on-screen text was found.';
  const shown = onScreenText
    .slice(0, 6)
    .map((entry) => `${quote(entry.text)} (seen ${span(entry.start, entry.end)})`);
  const more = onScreenText.length > 6 ? `, and ${onScreenText.length - 6} more lines` : '';
  return `The on-screen text reads ${list(shown)}${more}.`;
}

function speechAnswer(input: SummaryInput): string {
  const { transcript, transcriptUnavailableReason } = input;
  if (!transcript) {
    return input.facts.audio
      ? `I could not determine what is said: ${transcriptUnavailableReason ?? 'the speech was not recognised.'}`
      : 'No speech was found: the video has no sound.';
  }
  const words = transcript.text.split(' ').filter(Boolean);
  if (words.length === 0) return 'No speech was found in the sound.';
  const partial =
    transcript.duration_seconds >= input.transcriptMaxSeconds - 0.01
      ? ` Only the first ${seconds(input.transcriptMaxSeconds)} of sound were transcribed.`
      : '';
  const excerpt = words.slice(0, 60).join(' ') + (words.length > 60 ? ' …' : '');
  return `The speech says ${quote(excerpt)} (recognised automatically, may contain errors).${partial}`;
}

function searchAnswer(keywords: readonly string[], matches: readonly FocusMatch[], input: SummaryInput) {
  if (matches.length > 0) {
    const where = matches
      .slice(0, 10)
      .map(
        (m) =>
          `${quote(m.text)} (${m.source === 'transcript' ? 'speech' : 'on screen'}, ${seconds(m.start)})`,
      )
      .join('; ');
    return `Mentions of ${list(keywords.map(quote))}: ${where}.`;
  }
  const words = list(keywords.map(quote));
  return input.transcript
    ? `Neither the on-screen text nor the speech mentions ${words}.`
    : `The on-screen text does not mention ${words}; the speech could not be checked (no transcript).`;
}

function scenesAnswer(input: SummaryInput): string {
  return input.scenes.length <= 1
    ? 'It has 1 scene: no cuts were detected, it looks like one continuous shot.'
    : scenesSentence(input);
}

/** Scene by scene: when, its colours and brightness, and the text on screen. */
function sceneLine(entry: TimelineEntry): string {
  const colours = entry.dominant_colors.map((c) => c.name);
  const tone = entry.brightness < 0.25 ? 'dark' : entry.brightness > 0.7 ? 'bright' : 'medium brightness';
  const text = entry.text.length > 0 ? `, with the text ${list(entry.text.map(quote))}` : '';
  return `${span(entry.start, entry.end)}: ${tone}${colours.length ? `, mostly ${list(colours)}` : ''}${text}`;
}

function eventsAnswer(input: SummaryInput): string {
  const scenes = input.timeline.slice(0, 5).map(sceneLine);
  const more = input.timeline.length > 5 ? ` (and ${input.timeline.length - 5} more scenes)` : '';
  const picture =
    scenes.length > 0
      ? `${scenesAnswer(input)} ${scenes.map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join('. ')}${more}.`
      : scenesAnswer(input);
  return picture;
}

/** The words and matches a question asks for, found in the on-screen text and the speech. */
function findMentions(keywords: readonly string[], input: SummaryInput): FocusMatch[] {
  const stems = new Set(keywords.map(stem));
  const mentions = (text: string) => wordsOf(text).some((word) => stems.has(stem(word)));
  return [
    ...input.onScreenText
      .filter((entry) => mentions(entry.text))
      .map((entry) => ({
        source: 'on_screen_text' as const,
        start: entry.start,
        end: entry.end,
        text: entry.text,
      })),
    ...(input.transcript?.segments ?? [])
      .filter((segment) => mentions(segment.text))
      .map((segment) => ({
        source: 'transcript' as const,
        start: segment.start,
        end: segment.end,
        text: segment.text,
      })),
  ].sort((a, b) => a.start - b.start);
}

/**
 * The focus of a report asked `prompt`: the kinds of question it is, each answered from what was
 * found, what could not be determined said plainly, and the text and speech that mention its words.
 */
export function focusOn(
  prompt: string,
  input: SummaryInput,
  { kinds, keywords }: Question = classifyQuestion(prompt),
): Focus {
  const matches = keywords.length > 0 ? findMentions(keywords, input) : [];
  const answers: string[] = [];
  for (const kind of kinds) {
    if (kind === 'text') answers.push(textAnswer(input));
    if (kind === 'speech') answers.push(speechAnswer(input));
    if (kind === 'search') answers.push(searchAnswer(keywords, matches, input));
    if (kind === 'scenes') answers.push(scenesAnswer(input));
    if (kind === 'events')
      answers.push(eventsAnswer(input), textAnswer(input), speechAnswer(input), CANNOT_SEE);
    if (kind === 'colours') answers.push(coloursSentence(input));
    if (kind === 'facts') answers.push(factsSentence(input));
    if (kind === 'objects') answers.push(CANNOT_SEE);
  }
  // A search for words the text and speech do not contain may be about the picture: say what cannot be seen.
  if (kinds.length === 1 && kinds[0] === 'search' && matches.length === 0) answers.push(CANNOT_SEE);
  if (answers.length === 0) {
    answers.push(
      'I could not tell what the question asks, so here is what the analysis found.',
      scenesAnswer(input),
      coloursSentence(input),
      textAnswer(input),
      speechAnswer(input),
      CANNOT_SEE,
    );
  }
  const answer = [...new Set(answers.filter(Boolean))].join(' ');
  return { prompt, keywords, answer, matches };
}

/**
 * The report's summary: the answer to the question first (when there is one), then the overview,
 * leaving out the parts the answer already gave.
 */
export function summaryFor(
  input: SummaryInput,
  prompt: string | null,
): { summary: string; focus: Focus | null } {
  if (!prompt) return { summary: summarize(input), focus: null };
  const question = classifyQuestion(prompt);
  const focus = focusOn(prompt, input, question);
  // A question it could not classify was answered with the overview's scenes, colours, text and speech.
  const parts: Record<QuestionKind, SummaryPart[]> = {
    text: ['text'],
    speech: ['speech'],
    search: [],
    scenes: ['scenes'],
    events: ['scenes', 'text', 'speech'],
    colours: ['colours'],
    facts: ['facts'],
    objects: [],
  };
  const answered = new Set<SummaryPart>(
    question.kinds.length === 0
      ? ['scenes', 'colours', 'text', 'speech']
      : question.kinds.flatMap((kind) => parts[kind]),
  );
  return { summary: `${focus.answer} ${summarize(input, answered)}`, focus };
}
