import { CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'list_members' })
// Removing a contact from every list, and finding a number's lists.
@Index('list_members_contact_idx', ['contactId'])
export class ListMember {
  @ForeignKey('ContactList', { name: 'list_members_list_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'list_id', type: 'bigint' })
  listId: number;

  @ForeignKey('Contact', { name: 'list_members_contact_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'contact_id', type: 'bigint' })
  contactId: number;

  @CreateDateColumn({ name: 'added_at', type: 'timestamptz' })
  addedAt: Date;
}
