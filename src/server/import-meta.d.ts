/** What the server bundle (scripts/server-bundle.mjs) adds to a module's import.meta. */
interface ImportMeta {
  /**
   * The URL of the bundled file this module runs from, beside the bundle's other entries (speech-worker.js);
   * undefined when the module runs from source (tsx, vitest).
   */
  readonly serverBundleUrl?: string;
}
