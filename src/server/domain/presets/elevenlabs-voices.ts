/**
 * ElevenLabs' default voices ("premade" in the API: `category: premade` in `GET /v1/voices`), which
 * every account can use by id in `POST /v1/text-to-speech/{voice_id}`. Ids, names and labels
 * (gender, accent, age, description, use case) as the voices API reports them. `legacy` marks the
 * earlier default set (Rachel, Adam, Antoni, ...): ElevenLabs replaced them in its library but their
 * ids still work through the API for existing integrations. Bella is the earlier name of Sarah's id.
 */
export interface ElevenLabsVoice {
  id: string;
  name: string;
  gender: 'female' | 'male' | 'neutral';
  accent: string;
  age?: 'young' | 'middle-aged' | 'old';
  description: string;
  useCase?: string;
  legacy?: boolean;
  /** Other names the same id is known by. */
  aliases?: readonly string[];
}

// biome-ignore format: a table, one voice per line
export const ELEVENLABS_PREMADE_VOICES: readonly ElevenLabsVoice[] = [
  { id: '9BWtsMINqrJLrRacOk9x', name: 'Aria', gender: 'female', accent: 'American', age: 'middle-aged', description: 'expressive', useCase: 'social media' },
  { id: 'CwhRBWXzGAHq8TQ4Fs17', name: 'Roger', gender: 'male', accent: 'American', age: 'middle-aged', description: 'confident', useCase: 'social media' },
  { id: 'EXAVITQu4vr4xnSDxMaL', name: 'Sarah', gender: 'female', accent: 'American', age: 'young', description: 'soft', useCase: 'news', aliases: ['Bella'] },
  { id: 'FGY2WhTYpPnrIDTdsKH5', name: 'Laura', gender: 'female', accent: 'American', age: 'young', description: 'upbeat', useCase: 'social media' },
  { id: 'IKne3meq5aSn9XLyUdCD', name: 'Charlie', gender: 'male', accent: 'Australian', age: 'middle-aged', description: 'natural', useCase: 'conversational' },
  { id: 'JBFqnCBsd6RMkjVDRZzb', name: 'George', gender: 'male', accent: 'British', age: 'middle-aged', description: 'warm', useCase: 'narration' },
  { id: 'N2lVS1w4EtoT3dr4eOWO', name: 'Callum', gender: 'male', accent: 'Transatlantic', age: 'middle-aged', description: 'intense', useCase: 'characters' },
  { id: 'SAz9YHcvj6GT2YYXdXww', name: 'River', gender: 'neutral', accent: 'American', age: 'middle-aged', description: 'confident', useCase: 'social media' },
  { id: 'TX3LPaxmHKxFdv7VOQHJ', name: 'Liam', gender: 'male', accent: 'American', age: 'young', description: 'articulate', useCase: 'narration' },
  { id: 'XB0fDUnXU5powFXDhCwa', name: 'Charlotte', gender: 'female', accent: 'Swedish', age: 'young', description: 'seductive', useCase: 'characters' },
  { id: 'Xb7hH8MSUJpSbSDYk0k2', name: 'Alice', gender: 'female', accent: 'British', age: 'middle-aged', description: 'confident', useCase: 'news' },
  { id: 'XrExE9yKIg1WjnnlVkGX', name: 'Matilda', gender: 'female', accent: 'American', age: 'middle-aged', description: 'friendly', useCase: 'narration' },
  { id: 'bIHbv24MWmeRgasZH58o', name: 'Will', gender: 'male', accent: 'American', age: 'young', description: 'friendly', useCase: 'social media' },
  { id: 'cgSgspJ2msm6clMCkdW9', name: 'Jessica', gender: 'female', accent: 'American', age: 'young', description: 'expressive', useCase: 'conversational' },
  { id: 'cjVigY5qzO86Huf0OWal', name: 'Eric', gender: 'male', accent: 'American', age: 'middle-aged', description: 'friendly', useCase: 'conversational' },
  { id: 'iP95p4xoKVk53GoZ742B', name: 'Chris', gender: 'male', accent: 'American', age: 'middle-aged', description: 'casual', useCase: 'conversational' },
  { id: 'nPczCjzI2devNBz1zQrb', name: 'Brian', gender: 'male', accent: 'American', age: 'middle-aged', description: 'deep', useCase: 'narration' },
  { id: 'onwK4e9ZLuTAKqWW03F9', name: 'Daniel', gender: 'male', accent: 'British', age: 'middle-aged', description: 'authoritative', useCase: 'news' },
  { id: 'pFZP5JQG7iQjIQuC4Bku', name: 'Lily', gender: 'female', accent: 'British', age: 'middle-aged', description: 'warm', useCase: 'narration' },
  { id: 'pqHfZKP75CvOlQylNhV4', name: 'Bill', gender: 'male', accent: 'American', age: 'old', description: 'trustworthy', useCase: 'narration' },
  // The earlier default set.
  { id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel', gender: 'female', accent: 'American', age: 'young', description: 'calm', useCase: 'narration', legacy: true },
  { id: '29vD33N1CtxCmqQRPOHJ', name: 'Drew', gender: 'male', accent: 'American', age: 'middle-aged', description: 'well-rounded', useCase: 'news', legacy: true },
  { id: '2EiwWnXFnvU5JabPnv8n', name: 'Clyde', gender: 'male', accent: 'American', age: 'middle-aged', description: 'war veteran', useCase: 'characters', legacy: true },
  { id: '5Q0t7uMcjvnagumLfvZi', name: 'Paul', gender: 'male', accent: 'American', age: 'middle-aged', description: 'authoritative', useCase: 'news', legacy: true },
  { id: 'AZnzlk1XvdvUeBnXmlld', name: 'Domi', gender: 'female', accent: 'American', age: 'young', description: 'strong', useCase: 'narration', legacy: true },
  { id: 'CYw3kZ02Hs0563khs1Fj', name: 'Dave', gender: 'male', accent: 'British (Essex)', age: 'young', description: 'conversational', useCase: 'characters', legacy: true },
  { id: 'D38z5RcWu1voky8WS1ja', name: 'Fin', gender: 'male', accent: 'Irish', age: 'old', description: 'sailor', useCase: 'characters', legacy: true },
  { id: 'ErXwobaYiN019PkySvjV', name: 'Antoni', gender: 'male', accent: 'American', age: 'young', description: 'well-rounded', useCase: 'narration', legacy: true },
  { id: 'MF3mGyEYCl7XYWbV9V6O', name: 'Elli', gender: 'female', accent: 'American', age: 'young', description: 'emotional', useCase: 'narration', legacy: true },
  { id: 'TxGEqnHWrfWFTfGW9XjX', name: 'Josh', gender: 'male', accent: 'American', age: 'young', description: 'deep', useCase: 'narration', legacy: true },
  { id: 'VR6AewLTigWG4xSOukaG', name: 'Arnold', gender: 'male', accent: 'American', age: 'middle-aged', description: 'crisp', useCase: 'narration', legacy: true },
  { id: 'pNInz6obpgDQGcFmaJgB', name: 'Adam', gender: 'male', accent: 'American', age: 'middle-aged', description: 'deep', useCase: 'narration', legacy: true },
  { id: 'yoZ06aMxZJJ28mfd3POQ', name: 'Sam', gender: 'male', accent: 'American', age: 'young', description: 'raspy', useCase: 'narration', legacy: true },
];

/** The voice used when a request names none: George, the voice of ElevenLabs' own quickstart. */
export const ELEVENLABS_DEFAULT_VOICE_ID = 'JBFqnCBsd6RMkjVDRZzb';
