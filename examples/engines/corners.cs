// A rule engine for the one-way labyrinth in C# 7, speaking the engine protocol of
// docs/engine-protocol.md (JSON lines on stdin/stdout, several states per request), through Protocol.cs.
// Build with Mono:      mcs -out:corners.exe corners.cs Protocol.cs       run: mono corners.exe [--wrong]
// or with the .NET SDK: these two files in a console project (without its Program.cs), dotnet build.
//
// Rules (universal, sound on every board), the same as corners.c and corners.js:
//   dead-end  (disable): after the move, a free cell next to the old head would have too few ways
//             left (two among the free cells and the new head; the end corner one);
//   early-end (disable): stepping onto the end corner while other cells are still free;
//   forced-cell (force): a free neighbour of the head (not the end corner) with one free
//             neighbour left must be entered now.
// With --wrong it adds wall-ahead, a deliberately wrong rule: never step straight on towards a wall.
using System;
using System.Collections.Generic;
using System.Text;

static class Corners
{
    const int MaxN = 101;
    const string Order = "UDLR";
    static readonly int[] DX = { 0, 0, -1, 1 }, DY = { -1, 1, 0, 0 };
    static bool wrong;
    static int n, hx, hy, last, nfree;
    static bool[,] taken;

    static int Main(string[] args)
    {
        wrong = Array.IndexOf(args, "--wrong") >= 0;
        Protocol.Serve("{\"type\":\"hello\",\"protocol\":1,\"engine\":\"corners-cs" + (wrong ? "-wrong" : "") +
                       "\",\"version\":\"1\",\"puzzles\":[\"labyrinth\"],\"sizes\":{\"min\":3,\"max\":" + MaxN +
                       "},\"batch\":true,\"max_batch\":" + Protocol.MaxBatch + "}", Decide);
        return 0;
    }

    static bool On(int x, int y) { return x >= 1 && y >= 1 && x <= n && y <= n; }
    static bool Free(int x, int y) { return On(x, y) && !taken[x, y]; }
    static bool IsEnd(int x, int y) { return x == n && y == n; }

    static int Ways(int x, int y)
    {
        int ways = 0;
        for (int j = 0; j < 4; j++) if (Free(x + DX[j], y + DY[j])) ways++;
        return ways;
    }

    /// <summary>Lay the line of "N:MOVES" on the board (a FormatException names what is wrong).</summary>
    static void Parse(string text)
    {
        string moves;
        n = Protocol.Size(text, MaxN, out moves);
        taken = new bool[n + 2, n + 2];
        hx = hy = 1;
        taken[1, 1] = true;
        last = 1; // heading down at the start
        nfree = n * n - 1;
        for (int i = 0; i < moves.Length; i++)
        {
            last = Order.IndexOf(moves[i]);
            if (last < 0) throw new FormatException("not a move: " + Json.Write(moves[i].ToString()) + " in " + text);
            hx += DX[last];
            hy += DY[last];
            if (!Free(hx, hy)) throw new FormatException("move " + (i + 1) + " of " + text + " is not free");
            taken[hx, hy] = true;
            nfree--;
        }
    }

    /// <summary>The fields of one answer: allowed, forced, closed with the rules' names and cells.</summary>
    static string Decide(string state)
    {
        Parse(state);
        var closed = new List<string>[4];
        var forced = new List<string>();
        var forcedCells = new List<int[]>();
        int wanted = -1;
        for (int m = 0; m < 4; m++)
        {
            closed[m] = new List<string>();
            int wx = hx + DX[m], wy = hy + DY[m];
            if (!Free(wx, wy)) continue;
            if (IsEnd(wx, wy) && nfree > 1) closed[m].Add(Protocol.Reason("early-end", wx, wy));
            for (int k = 0; k < 4; k++) // the old head's other free neighbours lose it as a way in
            {
                int cx = hx + DX[k], cy = hy + DY[k];
                if (k == m || !Free(cx, cy)) continue;
                if (Ways(cx, cy) < (IsEnd(cx, cy) ? 1 : 2)) closed[m].Add(Protocol.Reason("dead-end", cx, cy));
            }
            if (wrong && m == last && !On(wx + DX[m], wy + DY[m])) closed[m].Add(Protocol.Reason("wall-ahead", wx, wy));
            if (!IsEnd(wx, wy) && Ways(wx, wy) == 1)
            {
                forced.Add("{\"move\":\"" + Order[m] + "\",\"rule\":\"forced-cell\",\"cells\":[[" + wx + "," + wy + "]]}");
                forcedCells.Add(new[] { wx, wy });
                wanted = wanted == -1 ? m : 4; // 4: two different forced moves
            }
        }
        var allowed = new StringBuilder();
        for (int m = 0; m < 4; m++)
        {
            if (!Free(hx + DX[m], hy + DY[m]) || closed[m].Count > 0) continue;
            if (forced.Count > 0 && m != wanted)
            {
                foreach (var c in forcedCells) closed[m].Add(Protocol.Reason("forced-cell", c[0], c[1]));
                continue;
            }
            allowed.Append(Order[m]);
        }
        return Protocol.Fields(state, allowed.ToString(), forced, closed, "");
    }
}
