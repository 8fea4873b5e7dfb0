// Owns the front end's calls to the JSON API (same origin, GET only).

class ApiError extends Error {}

export async function getJson<T>(
  endpoint: string,
  params: Record<string, string | number | undefined> = {},
): Promise<T> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
  return jsonOf<T>(await fetch(`/api/${endpoint}?${query.toString()}`, { headers: { Accept: 'application/json' } }));
}

/** The body of an API answer; an error answer throws its `error`. */
export async function jsonOf<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new ApiError(body.error ?? `HTTP ${response.status}`);
  return body;
}
