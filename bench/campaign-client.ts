import { campaignBodies, CampaignClientReport, CampaignClientSetup, epochNow, loadHttpClient, postSend } from './campaign';

/**
 * The child side of startCampaignClient (campaign.ts): builds the campaign's request bodies and loads its
 * HTTP client, answers `ready`; on `go` sends every request at once and reports when each was answered.
 */
let bodies: string[] = [];
let base = '';
let auth = '';
const reply = (r: CampaignClientReport) => process.send?.(r);

process.on('message', (m: { setup?: CampaignClientSetup; go?: true }) => {
  if (m.setup) {
    ({ base, auth } = m.setup);
    bodies = campaignBodies(m.setup.total, m.setup.perRequest, m.setup.firstNumber);
    loadHttpClient(base).then(
      () => reply({ ready: true }),
      (err: Error) => reply({ error: err.message }),
    );
  }
  if (m.go) {
    Promise.all(bodies.map((body) => postSend(base, auth, body).then(epochNow))).then(
      (answeredAt) => reply({ answeredAt }),
      (err: Error) => reply({ error: err.message }),
    );
  }
});
