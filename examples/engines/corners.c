/* A rule engine for the one-way labyrinth in C, speaking the engine protocol of
 * docs/engine-protocol.md: JSON lines on stdin/stdout. Build: cc -O2 -o corners corners.c
 *
 * Rules (universal, sound on every board), the same as corners.js:
 *   dead-end  (disable): after the move, a free cell next to the old head would have too few
 *             ways left (two among the free cells and the new head; the end corner one);
 *   early-end (disable): stepping onto the end corner while other cells are still free;
 *   forced-cell (force): a free neighbour of the head (not the end corner) with one free
 *             neighbour left must be entered now.
 * With --wrong it adds wall-ahead, a deliberately wrong rule: never step straight on towards a wall.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 101
static const char ORDER[] = "UDLR";
static const int DX[] = {0, 0, -1, 1}, DY[] = {-1, 1, 0, 0};
static int n, hx, hy, last, nfree, wrong;
static unsigned char taken[MAXN + 2][MAXN + 2];

static int on(int x, int y) { return x >= 1 && y >= 1 && x <= n && y <= n; }
static int is_free(int x, int y) { return on(x, y) && !taken[x][y]; }
static int is_end(int x, int y) { return x == n && y == n; }

/* the value of "key" in a flat JSON object: a string copied to out (0 if absent) */
static int field(const char *line, const char *key, char *out, size_t size) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(line, pat);
    if (!p) return 0;
    p += strlen(pat);
    while (*p == ' ' || *p == ':') p++;
    size_t k = 0;
    if (*p == '"') {
        for (p++; *p && *p != '"' && k + 1 < size; p++) out[k++] = *p;
    } else {
        for (; *p && *p != ',' && *p != '}' && *p != ' ' && k + 1 < size; p++) out[k++] = *p;
    }
    out[k] = 0;
    return 1;
}

static int parse(const char *text) {
    char *colon;
    n = (int)strtol(text, &colon, 10);
    if (*colon != ':' || n < 3 || n > MAXN || n % 2 == 0) return 0;
    memset(taken, 0, sizeof taken);
    hx = hy = 1;
    taken[1][1] = 1;
    last = 1; /* heading down at the start */
    nfree = n * n - 1;
    for (const char *c = colon + 1; *c; c++) {
        const char *d = strchr(ORDER, *c);
        if (!d || !*c) return 0;
        last = (int)(d - ORDER);
        hx += DX[last];
        hy += DY[last];
        if (!is_free(hx, hy)) return 0;
        taken[hx][hy] = 1;
        nfree--;
    }
    return 1;
}

/* append one reason {"rule":..,"cells":[[x,y]]} to a buffer */
static void reason(char *buf, const char *rule, int x, int y) {
    char one[96];
    snprintf(one, sizeof one, "%s{\"rule\":\"%s\",\"cells\":[[%d,%d]]}", *buf ? "," : "", rule, x, y);
    strcat(buf, one);
}

static void decide(const char *id, const char *state) {
    char closed[4][512] = {{0}}, forced[512] = "", wanted = 0, allowed[5] = "";
    int nforced = 0, fx[4], fy[4];
    for (int m = 0; m < 4; m++) {
        int wx = hx + DX[m], wy = hy + DY[m];
        if (!is_free(wx, wy)) continue;
        if (is_end(wx, wy) && nfree > 1) reason(closed[m], "early-end", wx, wy);
        for (int k = 0; k < 4; k++) { /* the old head's other free neighbours lose it as a way in */
            int cx = hx + DX[k], cy = hy + DY[k], ways = 0;
            if (k == m || !is_free(cx, cy)) continue;
            for (int j = 0; j < 4; j++) ways += is_free(cx + DX[j], cy + DY[j]);
            if (ways < (is_end(cx, cy) ? 1 : 2)) reason(closed[m], "dead-end", cx, cy);
        }
        if (wrong && m == last && !on(wx + DX[m], wy + DY[m])) reason(closed[m], "wall-ahead", wx, wy);
        if (!is_end(wx, wy)) {
            int ways = 0;
            for (int j = 0; j < 4; j++) ways += is_free(wx + DX[j], wy + DY[j]);
            if (ways == 1) {
                char one[128];
                snprintf(one, sizeof one, "%s{\"move\":\"%c\",\"rule\":\"forced-cell\",\"cells\":[[%d,%d]]}",
                         nforced ? "," : "", ORDER[m], wx, wy);
                strcat(forced, one);
                fx[nforced] = wx, fy[nforced] = wy, nforced++;
                wanted = wanted ? 'X' : ORDER[m]; /* X: two different forced moves */
            }
        }
    }
    size_t k = 0;
    for (int m = 0; m < 4; m++) {
        if (!is_free(hx + DX[m], hy + DY[m]) || closed[m][0]) continue;
        if (nforced && ORDER[m] != wanted) {
            for (int f = 0; f < nforced; f++) reason(closed[m], "forced-cell", fx[f], fy[f]);
            continue;
        }
        allowed[k++] = ORDER[m];
    }
    allowed[k] = 0;
    printf("{\"type\":\"decision\",\"id\":%s,\"state\":\"%s\",\"allowed\":\"%s\"", id, state, allowed);
    if (nforced) printf(",\"forced\":[%s]", forced);
    int any = 0;
    for (int m = 0; m < 4; m++) {
        if (!closed[m][0]) continue;
        printf("%s\"%c\":[%s]", any ? "," : ",\"closed\":{", ORDER[m], closed[m]);
        any = 1;
    }
    printf(any ? "}}\n" : "}\n");
}

int main(int argc, char **argv) {
    static char line[1 << 16];
    char type[32], id[32], state[MAXN * MAXN + 16];
    wrong = argc > 1 && strcmp(argv[1], "--wrong") == 0;
    while (fgets(line, sizeof line, stdin)) {
        if (!field(line, "type", type, sizeof type)) continue;
        if (!field(line, "id", id, sizeof id)) strcpy(id, "null");
        if (strcmp(type, "quit") == 0) break;
        if (strcmp(type, "hello") == 0) {
            printf("{\"type\":\"hello\",\"protocol\":1,\"engine\":\"corners-c%s\",\"version\":\"1\","
                   "\"puzzles\":[\"labyrinth\"],\"sizes\":{\"min\":3,\"max\":%d},\"batch\":false}\n",
                   wrong ? "-wrong" : "", MAXN);
        } else if (strcmp(type, "decide") == 0 && field(line, "state", state, sizeof state) && parse(state)) {
            decide(id, state);
        } else {
            printf("{\"type\":\"error\",\"id\":%s,\"message\":\"bad request\"}\n", id);
        }
        fflush(stdout);
    }
    return 0;
}
