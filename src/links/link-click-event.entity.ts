import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One hit on a short link, appended by the redirect and folded into short_links' counters. */
@Entity({ name: 'link_click_events' })
export class LinkClickEvent {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @Column({ name: 'code', type: 'text' })
  code: string;

  /** A preview fetcher, scanner or HEAD request rather than a person. */
  @Column({ name: 'preview', type: 'boolean' })
  preview: boolean;

  @CreateDateColumn({ name: 'clicked_at', type: 'timestamptz' })
  clickedAt: Date;
}
