// Builds when the build is missing, so `npm run test:e2e` works on its own.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync('dist/shells/manifest.json')) execSync('npm run build', { stdio: 'inherit' });
