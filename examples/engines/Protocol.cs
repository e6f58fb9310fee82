// The engine protocol's side of a rule engine in C# 7 (docs/engine-protocol.md), shared by corners.cs and
// stateful.cs: the loop that reads JSON lines on stdin and answers each on stdout, and the least JSON
// the protocol needs (no library, so that Mono's mcs and the .NET SDK build it alike). An engine gives
// its hello and a function from one state "N:MOVES" to the fields of its answer; batches, errors and
// quit are handled here. Build an engine with this file beside it: mcs -out:corners.exe corners.cs Protocol.cs
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;

static class Protocol
{
    /// <summary>The most states this loop takes in one request (its engines' hello says so).</summary>
    public const int MaxBatch = 4096;

    /// <summary>Answer requests until "quit" or the end of stdin. <paramref name="hello"/> is the engine's hello
    /// line; <paramref name="decide"/> gives the fields of the answer about one state (without braces) and
    /// throws a FormatException, whose message the error answer carries, for a state it cannot read.</summary>
    public static void Serve(string hello, Func<string, string> decide)
    {
        var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
        var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        string line;
        while ((line = input.ReadLine()) != null)
        {
            if (line.Trim().Length == 0) continue;
            string answer = Answer(line, hello, decide);
            if (answer == null) break; // quit
            output.Write(answer);
            output.Write('\n');
            output.Flush(); // one answer, one flush: the verifier waits for it
        }
    }

    static string Answer(string line, string hello, Func<string, string> decide)
    {
        object id = null;
        try
        {
            var request = Json.Parse(line) as Dictionary<string, object>;
            if (request == null) return Error(null, "the request is not a JSON object");
            request.TryGetValue("id", out id);
            object type, one, many;
            request.TryGetValue("type", out type);
            if ("quit".Equals(type)) return null;
            if ("hello".Equals(type)) return hello;
            if (!"decide".Equals(type)) return Error(id, "unknown request type " + Json.Write(type));
            if (request.TryGetValue("states", out many))
            {
                var states = many as List<object>;
                if (states == null || states.Count == 0 || states.Count > MaxBatch)
                    return Error(id, "'states' must be a list of 1 to " + MaxBatch + " states");
                var sb = new StringBuilder("{\"type\":\"decision\",\"id\":" + Json.Write(id) + ",\"answers\":[");
                for (int i = 0; i < states.Count; i++) // in order: a stateful engine may extend the one before
                    sb.Append(i > 0 ? "," : "").Append("{").Append(decide(states[i] as string)).Append("}");
                return sb.Append("]}").ToString();
            }
            if (!request.TryGetValue("state", out one)) return Error(id, "a decide request without 'state'");
            return "{\"type\":\"decision\",\"id\":" + Json.Write(id) + "," + decide(one as string) + "}";
        }
        catch (FormatException e) // unreadable JSON, or a state the engine cannot read
        {
            return Error(id, e.Message);
        }
        catch (Exception e) // the engine's own fault (an index out of range...): one error answer, not a crash
        {
            return Error(id, "internal error: " + e.GetType().Name + ": " + e.Message);
        }
    }

    static string Error(object id, string message)
    {
        return "{\"type\":\"error\",\"id\":" + Json.Write(id) + ",\"message\":" + Json.Write(message) + "}";
    }

    /// <summary>The board size of "N:MOVES" (N odd, 3 to <paramref name="max"/>) and its moves; a FormatException
    /// naming the state otherwise (the moves' letters are left to the engine).</summary>
    public static int Size(string text, int max, out string moves)
    {
        int colon = text == null ? -1 : text.IndexOf(':');
        int n;
        if (colon < 1 || !int.TryParse(text.Substring(0, colon), NumberStyles.None, CultureInfo.InvariantCulture, out n)
            || n < 3 || n > max || n % 2 == 0)
            throw new FormatException("not a state N:MOVES with N odd from 3 to " + max + ": " + Json.Write(text));
        moves = text.Substring(colon + 1);
        return n;
    }

    /// <summary>One reason of a closed move: {"rule": NAME, "cells": [[x, y]]}.</summary>
    public static string Reason(string rule, int x, int y)
    {
        return "{\"rule\":\"" + rule + "\",\"cells\":[[" + x + "," + y + "]]}";
    }

    /// <summary>The fields of an answer: allowed (as letters), forced (JSON objects), closed (per move U, D,
    /// L, R, a list of JSON reasons, or null), and any extra fields (",\"name\":value").</summary>
    public static string Fields(string state, string allowed, List<string> forced, List<string>[] closed, string extra)
    {
        var sb = new StringBuilder("\"state\":" + Json.Write(state) + ",\"allowed\":\"" + allowed + "\"" + extra);
        if (forced.Count > 0) sb.Append(",\"forced\":[").Append(string.Join(",", forced)).Append("]");
        bool any = false;
        for (int m = 0; m < 4; m++)
        {
            if (closed[m] == null || closed[m].Count == 0) continue;
            sb.Append(any ? "," : ",\"closed\":{").Append("\"").Append("UDLR"[m]).Append("\":[")
              .Append(string.Join(",", closed[m])).Append("]");
            any = true;
        }
        return (any ? sb.Append("}") : sb).ToString();
    }
}

/// <summary>The JSON this protocol needs: objects, arrays, strings, numbers, true/false/null; at most 32 levels
/// deep; anything else (NaN, a trailing comma, an unended string) is a FormatException naming the place.</summary>
static class Json
{
    public static object Parse(string text)
    {
        int at = 0;
        object value = Value(text, ref at, 0);
        Space(text, ref at);
        if (at != text.Length) throw Bad(text, at, "text after the JSON value");
        return value;
    }

    static FormatException Bad(string text, int at, string what)
    {
        return new FormatException("the request is not JSON this engine reads: " + what + " at character " + at);
    }

    static void Space(string s, ref int at)
    {
        while (at < s.Length && (s[at] == ' ' || s[at] == '\t' || s[at] == '\r' || s[at] == '\n')) at++;
    }

    static object Value(string s, ref int at, int depth)
    {
        Space(s, ref at);
        if (at >= s.Length) throw Bad(s, at, "the end of the line");
        char c = s[at];
        if (c == '{' || c == '[')
        {
            if (depth >= 32) throw Bad(s, at, "nesting deeper than 32 levels");
            return c == '{' ? (object)Object(s, ref at, depth + 1) : Array(s, ref at, depth + 1);
        }
        if (c == '"') return String(s, ref at);
        foreach (var word in new[] { "true", "false", "null" })
            if (string.CompareOrdinal(s, at, word, 0, word.Length) == 0)
            {
                at += word.Length;
                return word == "null" ? null : (object)(word == "true");
            }
        int start = at;
        while (at < s.Length && "+-0123456789.eE".IndexOf(s[at]) >= 0) at++;
        double number;
        if (at == start || !double.TryParse(s.Substring(start, at - start), NumberStyles.Float,
                                            CultureInfo.InvariantCulture, out number)
            || double.IsInfinity(number))
            throw Bad(s, start, "not a JSON value");
        return number;
    }

    static Dictionary<string, object> Object(string s, ref int at, int depth)
    {
        var obj = new Dictionary<string, object>();
        at++;
        Space(s, ref at);
        if (at < s.Length && s[at] == '}') { at++; return obj; }
        while (true)
        {
            Space(s, ref at);
            if (at >= s.Length || s[at] != '"') throw Bad(s, at, "an object key that is not a string");
            string key = String(s, ref at);
            Space(s, ref at);
            if (at >= s.Length || s[at] != ':') throw Bad(s, at, "no ':' after a key");
            at++;
            obj[key] = Value(s, ref at, depth);
            Space(s, ref at);
            if (at < s.Length && s[at] == ',') { at++; continue; }
            if (at < s.Length && s[at] == '}') { at++; return obj; }
            throw Bad(s, at, "an object not closed");
        }
    }

    static List<object> Array(string s, ref int at, int depth)
    {
        var list = new List<object>();
        at++;
        Space(s, ref at);
        if (at < s.Length && s[at] == ']') { at++; return list; }
        while (true)
        {
            list.Add(Value(s, ref at, depth));
            Space(s, ref at);
            if (at < s.Length && s[at] == ',') { at++; continue; }
            if (at < s.Length && s[at] == ']') { at++; return list; }
            throw Bad(s, at, "an array not closed");
        }
    }

    static string String(string s, ref int at)
    {
        var sb = new StringBuilder();
        for (at++; at < s.Length; at++)
        {
            char c = s[at];
            if (c == '"') { at++; return sb.ToString(); }
            if (c != '\\') { sb.Append(c); continue; }
            if (++at >= s.Length) break;
            int k = "\"\\/bfnrt".IndexOf(s[at]);
            if (k >= 0) { sb.Append("\"\\/\b\f\n\r\t"[k]); continue; }
            if (s[at] != 'u' || at + 4 >= s.Length) throw Bad(s, at, "a bad escape");
            sb.Append((char)int.Parse(s.Substring(at + 1, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
            at += 4;
        }
        throw Bad(s, at, "a string not ended");
    }

    /// <summary>A value as JSON text (strings escaped; whole numbers without a fraction).</summary>
    public static string Write(object value)
    {
        if (value == null) return "null";
        if (value is bool) return (bool)value ? "true" : "false";
        if (value is double)
        {
            double d = (double)value;
            return d == Math.Floor(d) && Math.Abs(d) < 1e15 ? ((long)d).ToString(CultureInfo.InvariantCulture)
                                                             : d.ToString("R", CultureInfo.InvariantCulture);
        }
        var text = value as string;
        if (text == null) return "null"; // (an id that is an object or a list: not this verifier's)
        var sb = new StringBuilder("\"");
        foreach (char c in text)
        {
            if (c == '"' || c == '\\') sb.Append('\\').Append(c);
            else if (c < ' ') sb.Append("\\u").Append(((int)c).ToString("x4"));
            else sb.Append(c);
        }
        return sb.Append('"').ToString();
    }
}
