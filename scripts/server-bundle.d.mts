/** Types of server-bundle.mjs (plain JavaScript, so that `npm start` runs without a TypeScript loader). */
export declare const SERVER_ENTRIES: Readonly<Record<string, string>>;
export declare const SERVER_INPUTS: readonly string[];
export declare function serverBuildDir(root: string): string;
export declare function currentServerBundle(root: string): string | null;
export declare function buildServerBundle(root: string): Promise<string>;
export declare function freshServerBundle(root: string, say?: (line: string) => void): Promise<string>;
