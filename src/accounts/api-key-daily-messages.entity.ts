import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** A capped API key's messages today (the day in its account's time zone); one row per key, reset when the day changes. */
@Entity({ name: 'api_key_daily_messages' })
@Check('api_key_daily_messages_messages_check', 'messages >= 0')
export class ApiKeyDailyMessages {
  @ForeignKey('ApiKey', { name: 'api_key_daily_messages_api_key_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'api_key_id', type: 'integer' })
  apiKeyId: number;

  @Column({ name: 'day', type: 'date' })
  day: string;

  @Column({ name: 'messages', type: 'integer' })
  messages: number;
}
