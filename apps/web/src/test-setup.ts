import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Lazy routes and chunks import on first use; on a loaded 2-core CI machine that passed the
// default 1 s of findBy*/waitFor (guards.test.tsx failed that way). A failing check still fails.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => cleanup());
