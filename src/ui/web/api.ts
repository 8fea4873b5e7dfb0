// Owns the front end's calls to the JSON API (same origin, GET only).

class ApiError extends Error {}

export async function getJson<T>(
  endpoint: string,
  params: Record<string, string | number | undefined> = {},
): Promise<T> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
  const response = await fetch(`/api/${endpoint}?${query.toString()}`, { headers: { Accept: 'application/json' } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new ApiError(body.error ?? `HTTP ${response.status}`);
  return body;
}
