import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'list_members' })
export class ListMember {
  @PrimaryColumn({ name: 'list_id', type: 'bigint' })
  listId: number;

  @PrimaryColumn({ name: 'contact_id', type: 'bigint' })
  contactId: number;

  @CreateDateColumn({ name: 'added_at', type: 'timestamptz' })
  addedAt: Date;
}
