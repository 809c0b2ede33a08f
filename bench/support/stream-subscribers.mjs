/**
 * A separate process holding the stream benchmark's websocket subscribers, so that their work does
 * not land on the server's event loop (in production they are other machines). It gets the URL and
 * the identifiers on its IPC channel, answers "ready" once every subscription is confirmed, counts
 * the messages each receives, and answers the counts when asked to stop.
 */
import WebSocket from 'ws';

process.once('message', async ({ url, identifiers }) => {
  const counts = identifiers.map(() => 0);
  const sockets = [];
  await Promise.all(
    identifiers.map(
      (identifier, index) =>
        new Promise((resolve, reject) => {
          const socket = new WebSocket(url);
          sockets.push(socket);
          socket.on('error', reject);
          socket.on('open', () => socket.send(JSON.stringify({ command: 'subscribe', identifier })));
          socket.on('message', (data) => {
            const frame = JSON.parse(data.toString());
            if (frame.type === 'confirm_subscription') resolve();
            else if (frame.type === 'reject_subscription') reject(new Error('subscription rejected'));
            else if (frame.message !== undefined) counts[index] += 1;
          });
        }),
    ),
  );
  process.send({ type: 'ready' });
  process.once('message', () => {
    for (const socket of sockets) socket.terminate();
    process.send({ type: 'counts', counts }, () => process.exit(0));
  });
});
