// Makes src/store/pglite-template/ again from the installed PGlite (after an upgrade of it).
import { buildShippedTemplate, TEMPLATE_FILE } from '../src/store/pglite-template.ts';

await buildShippedTemplate();
console.log(`wrote ${TEMPLATE_FILE}`);
