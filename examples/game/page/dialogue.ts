// Dialogue: the answers to the game's two waiting host builtins. say (who, text) shows a
// line and waits until the player reads on; choose (options) shows a button per choice
// and waits for one. Requests queue up (the keeper may speak while a choice is open)
// and are shown one at a time; each is answered through world.answer (request, value).

export type Pending = { request: number; kind: 'say'; who: string; text: string } | { request: number; kind: 'choose'; options: string[] };

export class Dialogue {
  private queue: Pending[] = [];
  /** The last line shown stays on screen (dimmed by nothing) until the next one. */
  private last: { who: string; text: string } = { who: '', text: '' };

  constructor(
    private readonly line: HTMLElement,
    private readonly choices: HTMLElement,
    private readonly answer: (request: number, value: unknown) => void,
  ) {}

  say(request: number, who: string, text: string): void {
    this.queue.push({ request, kind: 'say', who, text });
    if (this.queue.length === 1) this.show();
  }

  choose(request: number, options: string[]): void {
    this.queue.push({ request, kind: 'choose', options });
    if (this.queue.length === 1) this.show();
  }

  /** Whether something waits for the player. */
  get waiting(): boolean {
    return this.queue.length > 0;
  }

  /** Space or Enter: reads on past a line. 1–9: picks a choice. True when the key was for the dialogue. */
  key(name: string): boolean {
    const head = this.queue[0];
    if (!head) return false;
    if (head.kind === 'say' && (name === 'space' || name === 'enter')) {
      this.reply(true);
      return true;
    }
    if (head.kind === 'choose' && /^[1-9]$/.test(name) && Number(name) <= head.options.length) {
      this.reply(Number(name));
      return true;
    }
    return false;
  }

  /** The line on screen, which a save keeps (the requests themselves the world keeps). */
  get shown(): { who: string; text: string } {
    return { ...this.last };
  }

  /** After a load: the requests the world still waits on (world.pending ()), and the line that was on screen. */
  restore(pending: Pending[], last: { who: string; text: string } | undefined): void {
    this.queue = pending.map((p) => ({ ...p }));
    this.last = last ? { who: String(last.who), text: String(last.text) } : { who: '', text: '' };
    this.show();
  }

  private reply(value: unknown): void {
    const head = this.queue.shift();
    if (!head) return;
    this.answer(head.request, value);
    this.show();
  }

  private show(): void {
    const head = this.queue[0];
    if (head?.kind === 'say') this.last = { who: head.who, text: head.text };
    this.line.replaceChildren();
    if (this.last.who !== '') {
      const who = document.createElement('span');
      who.className = 'who';
      who.textContent = this.last.who;
      this.line.append(who);
    }
    this.line.append(this.last.text);
    this.choices.replaceChildren();
    if (head?.kind === 'say') {
      const b = document.createElement('button');
      b.id = 'continue';
      b.textContent = 'Continue ▸';
      b.onclick = () => this.reply(true);
      this.choices.append(b);
    } else if (head?.kind === 'choose') {
      head.options.forEach((text, i) => {
        const b = document.createElement('button');
        b.className = 'choice';
        b.textContent = `${i + 1}. ${text}`;
        b.onclick = () => this.reply(i + 1);
        this.choices.append(b);
      });
    }
  }
}
