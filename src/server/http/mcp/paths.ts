/** Where the MCP endpoint is, and where a client discovers how to get a token for it (RFC 9728). */
export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The resource metadata URL our 401s name. */
export function resourceMetadataUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`;
}
