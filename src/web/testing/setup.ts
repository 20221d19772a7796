import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy* and waitFor wait for behaviour, not for a deadline: on a starved CI host a lazy import or a
// render can take over the library's default second, so they wait up to 10 s (tests end at the first
// success, so a quiet machine loses nothing).
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  document.documentElement.className = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
