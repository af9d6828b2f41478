import { AUSTRALIAN_TIME_ZONES, type AustralianTimeZone } from '../../common/time/australian-time-zones';

/** How the time zone setting names each zone: where people live by it. */
export const TIME_ZONE_LABELS: Record<AustralianTimeZone, string> = {
  'Australia/Sydney': 'Sydney, Canberra (NSW, ACT)',
  'Australia/Melbourne': 'Melbourne (VIC)',
  'Australia/Brisbane': 'Brisbane (QLD, no daylight saving)',
  'Australia/Lindeman': 'Whitsunday Islands (QLD)',
  'Australia/Hobart': 'Hobart (TAS)',
  'Australia/Adelaide': 'Adelaide (SA)',
  'Australia/Broken_Hill': 'Broken Hill (NSW, central time)',
  'Australia/Darwin': 'Darwin (NT, no daylight saving)',
  'Australia/Perth': 'Perth (WA)',
  'Australia/Eucla': 'Eucla (WA, central western time)',
  'Australia/Lord_Howe': 'Lord Howe Island',
};

export const TIME_ZONE_CHOICES = AUSTRALIAN_TIME_ZONES.map((zone) => ({ zone, label: TIME_ZONE_LABELS[zone] }));
