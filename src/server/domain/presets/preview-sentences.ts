/**
 * What a voice says in its preview, in its own language where we have a sentence for it (languages
 * without one read the English sentence, which still shows how the voice sounds).
 */
const SENTENCES: Record<string, string> = {
  en: 'Hello! This is how I sound. I can read any text you give me, in my own voice.',
  de: 'Hallo! So klingt meine Stimme. Ich kann jeden Text vorlesen, den Sie mir geben.',
  es: 'Hola, así suena mi voz. Puedo leer cualquier texto que me des.',
  fr: 'Bonjour, voici ma voix. Je peux lire le texte de votre choix.',
  it: 'Ciao, questa è la mia voce. Posso leggere qualsiasi testo tu mi dia.',
  nl: 'Hallo, zo klinkt mijn stem. Ik kan elke tekst voorlezen die je me geeft.',
  pt: 'Olá, esta é a minha voz. Posso ler qualquer texto que me der.',
  pl: 'Cześć, tak brzmi mój głos.',
  ru: 'Привет, так звучит мой голос.',
  sv: 'Hej, så här låter min röst.',
  tr: 'Merhaba, bu benim sesim.',
  ja: 'こんにちは、これは私の声です。',
  cmn: '你好，这是我的声音。',
};

export function previewSentence(language: string): string {
  return SENTENCES[language] ?? SENTENCES.en!;
}
