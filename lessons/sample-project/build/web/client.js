import { isValidSlug } from "./slug";
const API = "/api";
export async function shorten(url) {
    const response = await fetch(`${API}/shorten`, { method: "POST", body: JSON.stringify({ url }) });
    if (!response.ok)
        throw new Error(`shorten failed: ${response.status}`);
    const body = await response.json();
    return { shortUrl: body.short_url };
}
