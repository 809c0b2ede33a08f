import { PGlite } from '@electric-sql/pglite';
let t=Date.now();
const db = new PGlite(); await db.waitReady; console.log('mem new', Date.now()-t, process.memoryUsage().rss>>20);
t=Date.now(); const dump = await db.dumpDataDir('none'); console.log('dump', Date.now()-t, dump.size);
t=Date.now(); const db2 = await PGlite.create({loadDataDir: dump}); console.log('load', Date.now()-t, process.memoryUsage().rss>>20);
t=Date.now(); const db3 = await db2.clone(); console.log('clone', Date.now()-t, process.memoryUsage().rss>>20);
