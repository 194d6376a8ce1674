import { shorten } from "../client";

/** The form on the home page: paste a long URL, get a short one. */
export class LinkForm {
  constructor(private readonly root: HTMLElement) {}

  async submit(url: string): Promise<void> {
    const output = this.root.querySelector("output")!;
    try {
      output.textContent = (await shorten(url)).shortUrl;
    } catch (error) {
      output.textContent = (error as Error).message;
    }
  }
}
