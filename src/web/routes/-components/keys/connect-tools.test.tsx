import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConnectTools } from './connect-tools.tsx';

describe('connect tools on the Keys page', () => {
  it('gives the CLI commands and the MCP configuration for the server the console talks to', () => {
    render(<ConnectTools />);
    const origin = window.location.origin;
    expect(screen.getByRole('heading', { name: 'Use with the CLI' })).toBeInTheDocument();
    expect(screen.getByText(`npx media login --base-url ${origin}`)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Connect an MCP client' })).toBeInTheDocument();
    expect(screen.getByText(`${origin}/mcp`)).toBeInTheDocument();
    const config = JSON.parse(screen.getByText(/mcpServers/).textContent ?? '');
    expect(config.mcpServers.media).toEqual({
      url: `${origin}/mcp`,
      headers: { Authorization: 'Bearer <your key>' },
    });
    expect(screen.getByRole('button', { name: 'Copy claude code' })).toBeInTheDocument();
  });
});
