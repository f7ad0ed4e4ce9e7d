// Signed Slack deliveries under load, run as a process of its own (like the other autocannon
// runs) so signing and sending do not share the event loop of the server measured. Every request
// is a new event: verified, stored and queued, never a repeat.
import autocannon from 'autocannon';
import { signedDelivery, type DeliveryTarget } from './slack-delivery.ts';

// `first` numbers this run's messages past another run's, so that no run repeats a message already saved.
const {
  connections,
  seconds,
  first = 0,
  ...target
} = JSON.parse(process.argv[2]!) as DeliveryTarget & { connections: number; seconds: number; first?: number };
let n = first;
const result = await autocannon({
  url: target.url,
  connections,
  duration: seconds,
  requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, ...signedDelivery(target, ++n, `${process.pid}`) }) }],
});
process.stdout.write(
  JSON.stringify({
    sent: n - first,
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }),
);
