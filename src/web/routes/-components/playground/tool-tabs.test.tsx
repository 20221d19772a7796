import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { ToolTabs } from './tool-tabs.tsx';

function model(name: string, tool: 'image' | 'speech', available: boolean): PriceCatalogEntry {
  return {
    model: name,
    tool,
    display_name: name,
    description: name,
    available,
    providers: [],
  };
}

describe('the tool tabs', () => {
  it('say how many models of each tool run here, with the noun that agrees (“1 model”, never “1 models”)', async () => {
    const catalog = [
      model('local-sketch', 'image', true),
      model('flux', 'image', false),
      model('local-flite', 'speech', true),
      model('local-espeak', 'speech', true),
    ];
    const root = createRootRoute({ component: Outlet });
    const playground = createRoute({
      getParentRoute: () => root,
      path: '/playground',
      component: () => <ToolTabs tools={['image', 'speech']} catalog={catalog} selected="image" />,
    });
    const router = createRouter({
      routeTree: root.addChildren([playground]),
      history: createMemoryHistory({ initialEntries: ['/playground'] }),
    });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('link', { name: /^Image\s*1\s*model available$/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^Speech\s*2\s*models available$/ })).toBeInTheDocument();
  });
});
