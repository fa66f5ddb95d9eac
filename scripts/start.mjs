// `npm start`: builds once if there is no build yet, then runs the server from the build.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync('dist/shells/manifest.json')) {
  console.log('No build found: running `npm run build` once (about a minute)...');
  execSync('npm run build', { stdio: 'inherit' });
}
await import('../src/server/main.ts');
