#!/usr/bin/env node
// Thin launcher: the CLI is compiled to out/ by `npm run build`.
import '../out/server/cli/main.js';
