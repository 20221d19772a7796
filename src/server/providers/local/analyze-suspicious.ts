import type { SuspiciousInstruction } from '../../../contract/video-analysis.ts';

/** A passage read from the video: a line or frame of on-screen text, or a stretch of speech. */
export interface Passage {
  source: SuspiciousInstruction['source'];
  time: number;
  text: string;
}

/*
 * Phrases that read like orders to an AI agent. Written in a small pattern language over lowercase words:
 * `(a|b)` alternatives, `(...)?` optional, `*` up to six words. `fuzzy` turns them into regular expressions
 * that tolerate OCR noise: i/l/1/| mixed up, m read as rn, spaces lost or added.
 */
const RULES: ReadonlyArray<readonly [pattern: string, reason: string]> = [
  [
    'ignore (all |any |every |your |my )(of )?(the |your |my )?((previous|prior|above|earlier|preceding|former|past|other|original|system) )?(instruction|prompt|rule|direction|directive|guideline|message|command)(s)?',
    'Tells the reader to ignore its instructions.',
  ],
  [
    'ignore (the )?(previous|prior|above|earlier|preceding|former|past|original|system) (instruction|prompt|rule|direction|directive|guideline|message|command)(s)?',
    'Tells the reader to ignore its instructions.',
  ],
  [
    '(disregard|forget|override|bypass) * (instruction|rule|guideline|prompt|direction|directive|policy|policies|safety|restriction|filter|guardrail)(s)?',
    'Tells the reader to drop its instructions or rules.',
  ],
  [
    'you are now (a|an|my|called|named|free|unrestricted|unfiltered|jailbroken|in developer mode|dan|no longer)',
    'Tries to give the reader a new identity or role.',
  ],
  ['pretend (that )?(you are|to be|youre)', 'Tries to give the reader a new identity or role.'],
  ['(system|developer|hidden|initial|secret) prompt', 'Mentions the hidden prompt of an AI.'],
  [
    'as an (ai|artificial intelligence|language model|llm|ai assistant|ai model)',
    'Addresses the reader as an AI.',
  ],
  [
    '(dear|attention|hey|hello|note to|message to|instructions for|instruction for|message for|note for) (the |all |any )?(ai|artificial intelligence|assistant|agent|chatbot|llm|language model|ai model|bot)(s)?',
    'Addresses an AI agent directly.',
  ],
  [
    '(new|updated|real|actual|true|revised) (system )?instruction(s)?',
    'Announces new instructions for the reader.',
  ],
  [
    '(execute|run|type|paste) (the |this |these |that )?(following )?(command|code|script|shell|terminal|program|payload)(s)?',
    'Asks to run a command or code.',
  ],
  ['(sudo|rm rf|chmod|powershell|bash c)', 'Contains a shell command.'],
  [
    '(send|email|mail|upload|post|forward|leak|exfiltrate|transfer|copy) * (password|passcode|credential|api key|token|secret|cookie|private key|ssh key|card number|seed phrase|personal data|data|file|conversation|chat history|history|memory|system prompt)(s)? * to',
    'Asks to send data somewhere.',
  ],
  [
    '(reveal|print|show|tell me|output|repeat|leak|display|disclose|share) (me )?(your|the) (system prompt|prompt|instruction|initial instruction|hidden instruction|secret|password|api key|token|configuration|memory)(s)?',
    'Asks the reader to reveal its instructions or secrets.',
  ],
  ['(jailbreak|dan mode|developer mode|do anything now|god mode)', 'Uses jailbreak wording.'],
  [
    '(do not|dont|never) (tell|inform|alert|notify|warn|mention (this |it )?to) (the )?(user|human|operator|owner)(s)?',
    'Asks to hide something from the user.',
  ],
];

/** How OCR misreads letters: the text is mapped back before it is matched. */
const OCR_DIGITS: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '|': 'i',
  '!': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  $: 's',
  '@': 'a',
  '7': 't',
};
const LETTER_CLASS: Record<string, string> = { i: '[il]', l: '[il]', m: '(?:m|rn)' };

/** Lowercase letters and single spaces, OCR digit confusions mapped to letters. */
export function normalizeForMatching(text: string): string {
  return text
    .toLowerCase()
    .replace(/[01|!3457$@]/g, (c) => OCR_DIGITS[c] ?? c)
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

function fuzzy(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (/[a-z]/.test(char)) source += `${LETTER_CLASS[char] ?? char} ?`;
    else if (char === ' ') source += ' ?';
    else if (char === '*') source += '(?:[a-z]+ ?){0,6}';
    else source += char;
  }
  return new RegExp(`(?<![a-z])${source}(?![a-z])`);
}

const COMPILED = RULES.map(([pattern, reason]) => ({ regex: fuzzy(pattern), reason }));

/**
 * Passages that read like instructions to an AI agent: one entry per passage that says something new (a
 * phrase not reported yet for its source), with the reason of its first new phrase. Earlier passages win,
 * so give lines before whole frames.
 */
export function findSuspicious(passages: readonly Passage[]): SuspiciousInstruction[] {
  const found: SuspiciousInstruction[] = [];
  const seen = new Set<string>();
  for (const passage of passages) {
    const normalized = normalizeForMatching(passage.text);
    let reason: string | null = null;
    for (const rule of COMPILED) {
      const match = rule.regex.exec(normalized);
      if (!match) continue;
      const key = `${passage.source}:${match[0].replace(/ /g, '')}`;
      if (!seen.has(key)) reason ??= rule.reason;
      seen.add(key);
    }
    if (reason) found.push({ source: passage.source, time: passage.time, text: passage.text, reason });
  }
  return found.sort((a, b) => a.time - b.time);
}
