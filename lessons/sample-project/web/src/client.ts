import { isValidSlug } from "./slug";

const API = "/api";

export interface ShortLink {
  shortUrl: string;
}

export async function shorten(url: string): Promise<ShortLink> {
  const response = await fetch(`${API}/shorten`, { method: "POST", body: JSON.stringify({ url }) });
  if (!response.ok) throw new Error(`shorten failed: ${response.status}`);
  const body = await response.json();
  return { shortUrl: body.short_url };
}

export function slugFromUrl(shortUrl: string): string | null {
  const slug = shortUrl.split("/").pop() ?? "";
  return isValidSlug(slug) ? slug : null;
}
