import { CarrierStatusModule } from '../../carriers/carrier-status.module';
import { CarrierStatusStore, STATUS_FRESH_MS, summarise } from '../../carriers/carrier-status-store';
import { Clock } from '../../common/time/clock';
import { defineCommand } from '../command';

export const CARRIER_STATUS_COMMAND = defineCommand({
  name: 'carrier:status',
  summary: 'each carrier as the running workers see it: binds up, window in use, submits a second, error share',
  description: `Summed over the workers that reported in the last ${STATUS_FRESH_MS / 1000} s (each publishes every 2 s). error_share is refused answers (temporary or permanent) over answers in the last interval; waiting counts messages whose every route carrier is down.`,
  options: {},
  examples: [''],
  modules: [CarrierStatusModule],
  run: async (app) => {
    const reports = await app.get(CarrierStatusStore).read(app.get(Clock).now().getTime());
    return { workers: reports.length, ...summarise(reports) };
  },
});
