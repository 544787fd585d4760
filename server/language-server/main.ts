// The Fleet language server: started by the VS Code extension through vscode-languageclient (one
// per window), it is a client of the coordination plane. Bundled to dist/language-server.cjs.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { FleetLanguageServer } from './fleet-language-server.js';

const connection = createConnection(ProposedFeatures.all);
new FleetLanguageServer(connection);
connection.listen();
