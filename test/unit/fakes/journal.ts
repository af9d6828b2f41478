/** One ordered record shared by several fakes, to assert the order of steps across collaborators. */
export class Journal {
  readonly entries: string[] = [];

  record(entry: string): void {
    this.entries.push(entry);
  }
}
